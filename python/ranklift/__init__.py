"""Runtime helpers for programs checked by ranklift (stdlib only)."""
