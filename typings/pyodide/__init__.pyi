"""Type stub for Pyodide's ``pyodide`` package: only its ``ffi`` module is used here."""
