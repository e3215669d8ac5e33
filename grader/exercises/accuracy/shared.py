"""What the accuracy probe (child side) and check (judging side) both read. Standard library only."""

#: The end-to-end training run.
EPOCHS = 8
BATCH = 128
DROPOUT = 0.2
SEED = 0

#: With --plots (or in a notebook), the run also trains with plain Adam, and once more with the
#: student's optimizer recording each step's gradient norm, to show where clipping was active.
CURVES_OPTION = "plain-adam"
