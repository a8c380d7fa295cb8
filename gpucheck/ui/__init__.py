"""The desktop app (Qt). Only this package (and report/pdf.py) imports Qt."""
