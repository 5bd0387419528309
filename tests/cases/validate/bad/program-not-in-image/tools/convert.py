import shutil

import nmap
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


def office() -> str | None:
    # every candidate is a program the image lacks (the .exe names are Windows's): never found
    for name in ["soffice", "libreoffice", "soffice.exe"]:
        found = shutil.which(name)
        if found:
            return found
    return None


def encoder() -> str | None:
    # ffmpeg is on the image: fine
    for candidate in ("avconv", "ffmpeg"):
        if shutil.which(candidate):
            return candidate
    return None


def scan(host: str) -> dict:
    # python-nmap's scanner looks for the nmap program when it is made
    return nmap.PortScanner().scan(host)
