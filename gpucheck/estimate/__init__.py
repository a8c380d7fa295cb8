"""Pure estimates: (GPU target, Workload) → Estimate. No Qt, no I/O beyond reading catalogs."""
