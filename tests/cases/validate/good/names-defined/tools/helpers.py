def helper_value() -> str:
    return "helper"
