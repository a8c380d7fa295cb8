"""Small painted widgets: verdict badge, VRAM bar, memory-breakdown chart, part cards."""
