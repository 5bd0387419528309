import not_a_dependency_of_this_plugin  # no requirement installs it


def shout(text: str) -> str:
    return not_a_dependency_of_this_plugin.upper(text)
