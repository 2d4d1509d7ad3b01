"""A small file to try nospin on (see README): nospin complete docs/example.py:12:12"""


def mean(values: list[float]) -> float:
    """Arithmetic mean of values."""
    return sum(values) / len(values)


def variance(values: list[float]) -> float:
    """Population variance of values."""
    m = mean(values)
    return 
