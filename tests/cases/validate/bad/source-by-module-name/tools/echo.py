raise RuntimeError('never loaded: tools/echo/ wins')
