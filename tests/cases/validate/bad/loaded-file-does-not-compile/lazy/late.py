def late(:
    pass
