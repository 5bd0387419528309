import csv
import io
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.invoke_message import InvokeMessage
from dify_plugin.entities.tool import ToolInvokeMessage
from dify_plugin.file.file import File


def _from_csv(content: str, question: int, answer: int, skip_header: bool) -> tuple[list[dict[str, str]], list[int]]:
    pairs, skipped = [], []
    rows = list(csv.reader(io.StringIO(content)))
    for number, row in enumerate(rows[1:] if skip_header else rows, start=2 if skip_header else 1):
        if max(question, answer) < len(row) and row[question].strip() and row[answer].strip():
            pairs.append({"question": row[question].strip(), "answer": row[answer].strip()})
        elif any(cell.strip() for cell in row):
            skipped.append(number)
    return pairs, skipped


def _from_text(content: str) -> tuple[list[dict[str, str]], list[int]]:
    pairs: list[dict[str, str]] = []
    skipped: list[int] = []
    question: str | None = None
    answer: list[str] = []
    for number, line in enumerate(content.splitlines(), start=1):
        stripped = line.strip()
        if stripped[:2].upper() == "Q:":
            if question and answer:
                pairs.append({"question": question, "answer": " ".join(answer)})
            question, answer = stripped[2:].strip(), []
        elif stripped[:2].upper() == "A:" and question:
            answer.append(stripped[2:].strip())
        elif stripped and question and answer:
            answer.append(stripped)  # an answer may go on over several lines
        elif stripped:
            skipped.append(number)
    if question and answer:
        pairs.append({"question": question, "answer": " ".join(answer)})
    return pairs, skipped


class QaChunkerTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        source = tool_parameters.get("input_file")
        if isinstance(source, File):
            pairs, skipped = _from_csv(
                source.blob.decode("utf-8-sig"),
                int(tool_parameters.get("question_column") or 0),
                int(tool_parameters.get("answer_column") if tool_parameters.get("answer_column") is not None else 1),
                tool_parameters.get("skip_header") is not False,
            )
        elif str(tool_parameters.get("input_text") or "").strip():
            pairs, skipped = _from_text(str(tool_parameters["input_text"]))
        else:
            raise ValueError("Give a CSV file in input_file or Q:/A: lines in input_text.")
        status = InvokeMessage.LogMessage.LogStatus
        yield self.create_log_message(
            "Read question-and-answer pairs",
            {"pairs": len(pairs), "skipped_lines": skipped},
            status=status.ERROR if not pairs else status.SUCCESS,
        )
        yield self.create_variable_message("result", {"qa_chunks": pairs})
