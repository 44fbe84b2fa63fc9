set(TEST_TIMEOUT 60)
set(TEST_LABELS "unit;timing")
