def render(style: str, text: str) -> str:
    match style:
        case "plain":
            return text
        case "bold" | "strong":
            return f"**{text}**"
