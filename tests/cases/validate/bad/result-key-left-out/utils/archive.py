import io
import zipfile


def pack(text: str) -> dict:
    try:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("notes.txt", text)
        return {"file": buffer.getvalue(), "name": "notes.zip"}
    except (OSError, zipfile.BadZipFile) as error:
        return {"error": str(error)}
