VALUE = "built"
