set(TEST_TIMEOUT 600)
set(TEST_LABELS "unit;timing")
