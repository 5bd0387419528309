"""`dify-registry workflow`: check Dify app DSL files against a catalog of tool plugins.

`dsl` reads a DSL file (bounded, with positions), `uses` finds its tool uses and references,
`catalog` builds what the check compares them with, `check` turns the comparison into findings.
"""
