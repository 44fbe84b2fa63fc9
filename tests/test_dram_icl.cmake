set(TEST_LABELS "unit")
