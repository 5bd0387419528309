"""Benchmarks of the registry (run with `make bench`)."""
