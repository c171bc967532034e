"""One-off studies: measurements made once to decide something (what a tighter bound or a
partition table could save at most, which levers of the advice were worth building, where the
engines' own worst decisions are), kept with their results so the decision can be checked and the
study rerun (``python -m bench.studies.NAME``); not the benchmarks a maintainer reruns after a
change (``python -m bench`` lists both)."""
