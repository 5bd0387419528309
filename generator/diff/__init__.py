"""`diff`: what a new version of a plugin changes for the workflows built on the old one.

sources (folder, package, git revision) -> interface (parameters, outputs, credentials, manifest
facts) -> tools / plugin (changes, each a rule with a class) -> version (the bump they need) ->
compare (one comparison) -> history (the versions in a folder's git history, for the site).
"""
