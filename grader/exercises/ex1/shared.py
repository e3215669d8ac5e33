"""What ex1's probe (child side) and checks (judging side) both read. Standard library only."""

#: Dropout rates at which dropout is observed (observation ``dropout/rate<rate>`` each).
RATES = (0.1, 0.25, 0.5, 0.8)
