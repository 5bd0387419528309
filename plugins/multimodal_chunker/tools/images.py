"""Markdown images embedded as data URIs: find them, upload them, describe the uploads."""

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dify_plugin.invocations.file import UploadFileResponse

# ![alt](data:image/png;base64,....)
DATA_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\(data:(?P<mime>image/[\w.+-]+);base64,(?P<data>[A-Za-z0-9+/=\s]+)\)")
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg"}
MAX_IMAGE_BYTES = 10 * 1024 * 1024

Upload = Callable[[str, bytes, str], UploadFileResponse]


@dataclass
class Uploader:
    """Uploads each embedded image once and numbers them in document order."""

    upload: Upload
    uploaded: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    def replace(self, text: str) -> tuple[str, list[dict[str, Any]]]:
        """`text` with each embedded image replaced by a link to its upload, and the uploads' file objects."""
        files: list[dict[str, Any]] = []

        def swap(match: re.Match[str]) -> str:
            mime = match["mime"]
            try:
                content = base64.b64decode("".join(match["data"].split()), validate=True)
            except binascii.Error:
                self.rejected.append(f"{match['alt'] or 'image'}: not valid base64")
                return match["alt"]
            if mime not in EXTENSIONS or len(content) > MAX_IMAGE_BYTES:
                self.rejected.append(f"{match['alt'] or 'image'}: {mime}, {len(content)} bytes")
                return match["alt"]
            name = f"figure-{len(self.uploaded) + 1}.{EXTENSIONS[mime]}"
            response = self.upload(name, content, mime)
            file = {
                "name": response.name,
                "size": response.size,
                "extension": response.extension,
                "type": (response.type or UploadFileResponse.Type.from_mime_type(mime)).value,
                "mime_type": response.mime_type,
                "transfer_method": "tool_file",
                "url": response.preview_url or "",
                "related_id": response.id,
            }
            self.uploaded.append(file)
            files.append(file)
            return f"![{match['alt']}]({file['url']})"

        return DATA_IMAGE.sub(swap, text), files


def plain(text: str) -> str:
    """Text for child chunks: image links reduced to their alt text."""
    return re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)


def paragraphs(text: str, separator: str) -> list[str]:
    separator = separator.replace("\\n", "\n")
    return [part.strip() for part in text.split(separator) if part.strip()]
