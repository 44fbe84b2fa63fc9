set(TEST_TIMEOUT 120)
set(TEST_LABELS "unit;timing")
