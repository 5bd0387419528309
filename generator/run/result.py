"""The one vocabulary of run results: what a run shows, said the same way in the text and JSON
output, in `index.json` and on the pages (documented in `registry/docs/runner.md`).

Only a run of an example its author wrote (or of a recording) can pass or fail: it had
expectations. A smoke run on invented inputs says what it shows, and only a crash no input can
cause is red.
"""

from __future__ import annotations

import enum


class RunResult(enum.StrEnum):
    """What one run shows."""

    PASSED = "passed"  # an example: its expectations and output_schema were met
    FAILED = "failed"  # an example: they were not, or the run did not finish
    OUTPUT = "output"  # a smoke run produced output, made from invented inputs
    CREDENTIAL = "credential"  # a smoke run stopped for a missing credential (named)
    NETWORK = "network"  # a smoke run, or an example with no recording, stopped at a network call (hosts)
    DIFY_CALL = "dify-call"  # a smoke run stopped at a call back into Dify the runner does not serve
    TOOL_ERROR = "tool-error"  # the tool answered the invented inputs with an error message of its own
    TIME_LIMIT = "time-limit"  # a smoke run reached the time limit on invented inputs (named)
    ENVIRONMENT = "environment"  # a smoke run needed what Dify's environment has and the runner's not
    CRASHED = "crashed"  # a smoke run crashed in the plugin's code in a way no input can cause
    # a trigger event's example: the event raised EventIgnoreError (Dify starts no workflow run); a
    # result of its own, not a failure (R105 warns when the example does not expect it)
    IGNORED = "ignored"

    @property
    def proven(self) -> bool:
        """True when the run shows the tool working: an example passed, or invented inputs gave output."""
        return self in (RunResult.PASSED, RunResult.OUTPUT)

    @property
    def tone(self) -> str:
        """How a page colours it: green for a pass, red for a failure or a crash, neutral otherwise."""
        if self is RunResult.PASSED:
            return "ok"
        if self in (RunResult.FAILED, RunResult.CRASHED):
            return "error"
        return "info"


# What each result says, in en_US, zh_Hans, ja_JP, pt_BR (the site's language order); the text
# output uses the first, followed by the run's detail in brackets (a credential, hosts, a message).
LABELS: dict[RunResult, tuple[str, str, str, str]] = {
    RunResult.PASSED: ("passed", "通过", "成功", "passou"),
    RunResult.FAILED: ("failed", "失败", "失敗", "falhou"),
    RunResult.OUTPUT: (
        "produced output from invented inputs",
        "用虚构的输入产生了输出",
        "架空の入力で出力を生成",
        "produziu saída com entradas inventadas",
    ),
    RunResult.CREDENTIAL: (
        "stopped: no value for a credential",
        "已停止：缺少凭据的值",
        "停止: 認証情報の値がない",
        "parou: sem valor para uma credencial",
    ),
    RunResult.NETWORK: (
        "stopped at a network call",
        "在网络调用处停止",
        "ネットワーク呼び出しで停止",
        "parou em uma chamada de rede",
    ),
    RunResult.DIFY_CALL: (
        "stopped at a call back into Dify",
        "在回调 Dify 处停止",
        "Dify への呼び出しで停止",
        "parou em uma chamada de volta ao Dify",
    ),
    RunResult.TOOL_ERROR: (
        "the tool answered the invented inputs with an error message",
        "工具对虚构的输入返回了错误信息",
        "ツールは架空の入力にエラーメッセージで応答",
        "a ferramenta respondeu às entradas inventadas com uma mensagem de erro",
    ),
    RunResult.TIME_LIMIT: (
        "stopped at the time limit on invented inputs",
        "在虚构的输入上达到时间限制而停止",
        "架空の入力で時間制限に達して停止",
        "parou no limite de tempo com entradas inventadas",
    ),
    RunResult.ENVIRONMENT: (
        "stopped: the runner's environment lacks what Dify's has",
        "已停止：运行器的环境缺少 Dify 环境中有的东西",
        "停止: ランナーの環境に Dify の環境にあるものがない",
        "parou: o ambiente do executor não tem o que o do Dify tem",
    ),
    RunResult.CRASHED: (
        "crashed in the plugin's code",
        "在插件代码中崩溃",
        "プラグインのコードでクラッシュ",
        "falhou no código do plugin",
    ),
    RunResult.IGNORED: (
        "ignored: the event skipped this delivery",
        "已忽略：事件跳过了这次投递",
        "無視: イベントがこの配信をスキップ",
        "ignorado: o evento descartou esta entrega",
    ),
}


def in_words(result: RunResult, detail: str) -> str:
    """The result in words (English), with its detail."""
    words = LABELS[result][0]
    return f"{words} ({detail})" if detail else words
