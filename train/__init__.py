"""The trainers: scripts that fit what the library ships (the advice model's weights, the opponent
model's parameters) or compute the exact reference the advice benchmarks are judged against.
``train/README.md`` lists them; each runs as ``python -m train.NAME``."""
