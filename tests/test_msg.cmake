set(TEST_TIMEOUT 300)
set(TEST_LABELS "unit;timing")
