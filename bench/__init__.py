"""Benchmarks: run through ``nospin bench ...``; each prints one JSON object."""
