import pytesseract as ocr
import rarfile
from pdf2image import convert_from_bytes
from playwright.sync_api import sync_playwright


def render(data: bytes) -> str:
    pages = convert_from_bytes(data)
    text = ocr.image_to_string(pages[0])
    with rarfile.RarFile("archive.rar") as archive:
        names = archive.namelist()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch()
        browser.close()
    return text + ",".join(names) + local_only()


def local_only() -> str:
    # A function of the plugin's own that happens to share a library function's name: not judged.
    def convert_from_path(path: str) -> str:
        return path

    return convert_from_path("x")
