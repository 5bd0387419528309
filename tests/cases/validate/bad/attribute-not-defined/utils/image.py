class ImageHelper:
    """The plugin's own helper: every attribute it has is written here."""

    scale = 1

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.width = len(data)

    def get_pixel(self, x: int, y: int) -> int:
        return self.data[(y * self.width + x) % max(self.widht, 1)]  # a typo of its own attribute

    @property
    def size(self) -> int:
        return self.width * self.scale


class Lenient:
    """Attributes come from its data: nothing about them is certain."""

    def __getattr__(self, name: str) -> int:
        return 0


class Base:
    def describe(self) -> str:
        return self.label  # a subclass defines it


class Labelled(Base):
    label = "labelled"
