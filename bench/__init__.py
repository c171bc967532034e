"""The benchmarks: fixed seeded sets measured beside a baseline in the same run, their results
recorded in ``bench/results/``. ``python -m bench`` lists them, ``python -m bench --quick`` prints
the search's node signature and the key figures; ``bench/README.md`` says what each measures and
which figures of the docs come from it. A benchmark is a module run as ``python -m bench.NAME``."""
