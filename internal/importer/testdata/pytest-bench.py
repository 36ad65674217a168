import pytest


def join(n):
    return ",".join(str(i) for i in range(n))


@pytest.mark.parametrize("n", [10, 100])
def test_join(benchmark, n):
    benchmark(join, n)


def test_sum(benchmark):
    benchmark.pedantic(sum, args=(range(200),), rounds=7, iterations=20)
