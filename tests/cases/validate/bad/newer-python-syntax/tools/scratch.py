# an unfinished helper that no tool imports: invalid under every Python
def helper(:
    pass
