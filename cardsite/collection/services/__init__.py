"""Writes to collections and to who may read or pool them, one module per job."""
