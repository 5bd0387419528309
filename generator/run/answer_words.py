"""The words with which a tool's own text says that it failed, or that it wants a value, in the
languages of Dify's catalog (English, Chinese, Japanese, Portuguese): a tool answers its user in the
user's language, and a Japanese "失敗しました" is as much an error answer as an English "failed".

Latin words must start a word (so that "errors" is "error", but "terror" is not); Chinese and
Japanese write no spaces between words, so their words are found anywhere in the text."""

from __future__ import annotations

import re

# That the text is an error answer (`causes.error_answer`, searched in the text's first 200 characters).
_ERROR_LATIN = (
    # English
    r"error|failed|failure|invalid|exception|unauthori[sz]ed|forbidden|denied|missing|not found|"
    r"not provided|no .{1,40} provided|is required|are required|cannot|could not|couldn't|unable to|"
    r"please (provide|set|enter|configure|check|input)|not configured|not set|must be|"
    # Portuguese
    r"erro|falha|falhou|inv[aá]lid[oa]|n[aã]o (encontrad[oa]|foi poss[ií]vel|configurad[oa]|"
    r"autorizad[oa]|informad[oa]|fornecid[oa]|definid[oa])|obrigat[oó]ri[oa]|[eé] necess[aá]ri[oa]|"
    r"por favor,? (forne[cç]a|informe|configure|defina|insira|verifique)|forne[cç]a|informe|insira|"
    r"acesso negado|ausente"
)
_ERROR_CJK = (
    # Chinese (simplified, then traditional)
    r"错误|失败|无效|异常|出错|报错|缺少|未找到|找不到|不存在|未配置|未设置|未提供|请提供|请设置|请输入|"
    r"请配置|请检查|请先|不能为空|必填|无法|拒绝|未授权|權限不足|权限不足|"
    r"錯誤|失敗|無效|異常|未設定|請提供|請設定|請輸入|請配置|請檢查|無法|拒絕|未授權|"
    # Japanese (失敗, 無効 and 未設定 are written as in traditional Chinese, above)
    r"エラー|見つかりません|できません|設定してください|入力してください|指定してください|"
    r"確認してください|必要です|必須|許可されていません"
)
ERROR_TEXT = re.compile(rf"\b({_ERROR_LATIN})|({_ERROR_CJK})", re.IGNORECASE)

# That an answer asks for a value (with the parameter's name beside it: `verdict`'s R038).
_REQUIRED_LATIN = (
    r"required|missing|must be (provided|set|given|specified)|(is|are) empty|cannot be empty|"
    r"(is|are|was|were) not (provided|set|given|specified)|please (provide|enter|set|input|specify)|"
    r"no .{1,40} (provided|given)|"
    r"obrigat[oó]ri[oa]|[eé] necess[aá]ri[oa]|n[aã]o (foi )?(informad[oa]|fornecid[oa])|ausente|"
    r"forne[cç]a|informe|insira"
)
_REQUIRED_CJK = (
    r"必填|必须|不能为空|为空|缺少|未提供|请提供|请输入|请填写|"
    r"必須|必要です|入力してください|指定してください|設定してください|未設定|請提供|請輸入"
)
REQUIRED_TEXT = re.compile(rf"\b({_REQUIRED_LATIN})|({_REQUIRED_CJK})", re.IGNORECASE)
