from typing import Any


def required(parameters: dict[str, Any], name: str) -> Any:
    # reads only the key each caller names: `required(params, "ticker")` reads "ticker"
    if name not in parameters:
        raise ValueError(f"Missing required parameter: {name}")
    return parameters[name]


def described(parameters: dict[str, Any]) -> str:
    # iterates the dictionary: any parameter may be read here
    return ", ".join(f"{key}={value}" for key, value in parameters.items())
