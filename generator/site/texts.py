"""The site's own words in each language (labels from manifests are translated by their authors)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from generator.run.result import LABELS

# key: (en_US, zh_Hans, ja_JP, pt_BR)
_TEXTS: dict[str, tuple[str, str, str, str]] = {
    "catalog": ("Catalog", "插件目录", "カタログ", "Catálogo"),
    "plugins": ("Plugins", "插件", "プラグイン", "Plugins"),
    "plugin": ("Plugin", "插件", "プラグイン", "Plugin"),
    "tools": ("Tools", "工具", "ツール", "Ferramentas"),
    "tool": ("Tool", "工具", "ツール", "Ferramenta"),
    "tool_count": ("Tools", "工具数", "ツール数", "Ferramentas"),
    # plugin kinds (the manifest's `plugins:` keys), on cards and in the catalog's filter
    "kind_tools": ("Tool", "工具", "ツール", "Ferramenta"),
    "kind_triggers": ("Trigger", "触发器", "トリガー", "Gatilho"),
    "kind_datasources": ("Data source", "数据源", "データソース", "Fonte de dados"),
    "kind_models": ("Model", "模型", "モデル", "Modelo"),
    "kind_agent_strategies": ("Agent strategy", "Agent 策略", "エージェント戦略", "Estratégia de agente"),
    "kind_endpoints": ("Extension", "扩展", "拡張機能", "Extensão"),
    "filter_by_kind": ("Kind", "类型", "種類", "Tipo"),
    # what a card counts below a kind's providers
    "children_triggers": ("Events", "事件数", "イベント数", "Eventos"),
    "children_datasources": ("Data sources", "数据源数", "データソース数", "Fontes de dados"),
    "triggers": ("Triggers", "触发器", "トリガー", "Gatilhos"),
    "events": ("Events", "事件", "イベント", "Eventos"),
    "event": ("Event", "事件", "イベント", "Evento"),
    "trigger_event": ("Trigger event", "触发器事件", "トリガーイベント", "Evento de gatilho"),
    "subscribe": ("How to subscribe", "如何订阅", "サブスクリプションの作り方", "Como assinar"),
    "subscription_fields": (
        "Subscription fields (a subscription made by hand)",
        "订阅字段（手动创建订阅）",
        "サブスクリプションの項目（手動で作成する場合）",
        "Campos da assinatura (assinatura feita à mão)",
    ),
    "constructor_parameters": (
        "Parameters when Dify creates the subscription",
        "由 Dify 创建订阅时的参数",
        "Dify がサブスクリプションを作成するときのパラメータ",
        "Parâmetros quando o Dify cria a assinatura",
    ),
    "constructor_credentials": (
        "Credentials for creating the subscription",
        "创建订阅所需的凭据",
        "サブスクリプション作成用の認証情報",
        "Credenciais para criar a assinatura",
    ),
    "oauth_client": ("OAuth client", "OAuth 客户端", "OAuth クライアント", "Cliente OAuth"),
    "oauth_credentials": ("OAuth credentials", "OAuth 凭据", "OAuth 認証情報", "Credenciais OAuth"),
    "no_constructor": (
        "Dify cannot create the subscription for you: set up the webhook in the service yourself.",
        "Dify 无法为你创建订阅：请在服务中自行设置 Webhook。",
        "Dify はサブスクリプションを作成できません。サービス側で Webhook を自分で設定してください。",
        "O Dify não cria a assinatura para você: configure o webhook no serviço.",
    ),
    "no_fields": ("None.", "无。", "なし。", "Nenhum."),
    "no_events": ("No events.", "没有事件。", "イベントはありません。", "Nenhum evento."),
    "event_outputs": ("Output variables", "输出变量", "出力変数", "Variáveis de saída"),
    "no_event_output_schema": (
        "The event declares no output_schema: a workflow cannot pick its variables.",
        "此事件没有声明 output_schema：工作流无法选择它的变量。",
        "このイベントは output_schema を宣言していないため、ワークフローで変数を選べません。",
        "O evento não declara output_schema: um fluxo de trabalho não pode escolher suas variáveis.",
    ),
    "in_workflow_event_intro": (
        "The nodes after the trigger read each variable with this syntax, the trigger node's id in "
        "place of node_id:",
        "触发器之后的节点用以下语法读取各个变量，把 node_id 换成触发器节点的 ID：",
        "トリガーの後のノードは次の構文で各変数を読み取ります。"
        "node_id はトリガーノードの ID に置き換えます：",
        "Os nós depois do gatilho leem cada variável com esta sintaxe, com o id do nó do gatilho no "
        "lugar de node_id:",
    ),
    "static_only": (
        "No example deliveries: this event was checked statically only (its YAML, its schema and "
        "its code read without running them), never run.",
        "没有示例推送：此事件仅经过静态检查（读取其 YAML、Schema 和代码，但未运行），从未运行过。",
        "配信例がないため、このイベントは静的にのみ検査されました（YAML、スキーマ、コードを読むだけで実行していません）。",
        "Sem entregas de exemplo: este evento foi verificado apenas estaticamente (YAML, schema e "
        "código lidos sem executá-los), nunca executado.",
    ),
    "datasources": ("Data sources", "数据源", "データソース", "Fontes de dados"),
    "datasource": ("Data source", "数据源", "データソース", "Fonte de dados"),
    "provider_type": ("Provider type", "提供者类型", "プロバイダーの種類", "Tipo de provedor"),
    "connect": ("How to connect", "如何连接", "接続方法", "Como conectar"),
    "no_datasource_output_schema": (
        "The data source declares no output_schema: the pipeline cannot pick its variables.",
        "此数据源没有声明 output_schema：知识流水线无法选择它的变量。",
        "このデータソースは output_schema を宣言していないため、パイプラインで変数を選べません。",
        "A fonte de dados não declara output_schema: o pipeline não pode escolher suas variáveis.",
    ),
    "in_workflow_datasource_intro": (
        "The nodes after the data source in a knowledge pipeline read each variable with this "
        "syntax, the data source node's id in place of node_id:",
        "知识流水线中数据源之后的节点用以下语法读取各个变量，把 node_id 换成数据源节点的 ID：",
        "ナレッジパイプラインでデータソースの後のノードは次の構文で各変数を読み取ります。"
        "node_id はデータソースノードの ID に置き換えます：",
        "Os nós depois da fonte de dados num pipeline de conhecimento leem cada variável com esta "
        "sintaxe, com o id do nó da fonte de dados no lugar de node_id:",
    ),
    "datasource_static_only": (
        "Data sources read a remote service: this one was checked statically only (its YAML, its "
        "schema and its code read without running them), never run.",
        "数据源读取远程服务：此数据源仅经过静态检查（读取其 YAML、Schema 和代码，但未运行），从未运行过。",
        "データソースはリモートのサービスを読み取るため、静的にのみ検査されました（YAML、スキーマ、コードを読むだけで実行していません）。",
        "Fontes de dados leem um serviço remoto: esta foi verificada apenas estaticamente (YAML, "
        "schema e código lidos sem executá-los), nunca executada.",
    ),
    "models": ("Models", "模型", "モデル", "Modelos"),
    "model": ("Model", "模型", "モデル", "Modelo"),
    "model_types": ("Model types", "模型类型", "モデルの種類", "Tipos de modelo"),
    "model_type": ("Type", "类型", "種類", "Tipo"),
    "configurate_methods": ("Configured by", "配置方式", "設定方法", "Configuração"),
    "context_size": ("Context size", "上下文长度", "コンテキスト長", "Tamanho do contexto"),
    "features": ("Features", "特性", "機能", "Recursos"),
    "parameter_rules": ("Parameters", "参数", "パラメータ", "Parâmetros"),
    "pricing": ("Pricing", "价格", "料金", "Preço"),
    "pricing_input": ("in", "输入", "入力", "entrada"),
    "pricing_output": ("out", "输出", "出力", "saída"),
    "deprecated": ("deprecated", "已弃用", "非推奨", "obsoleto"),
    "no_models": (
        "No predefined models: the user declares each model.",
        "没有预定义模型：由用户自行声明每个模型。",
        "定義済みのモデルはありません。ユーザーが各モデルを宣言します。",
        "Nenhum modelo predefinido: o usuário declara cada modelo.",
    ),
    "endpoints": ("Endpoints", "端点", "エンドポイント", "Endpoints"),
    "endpoint_settings": (
        "Settings when enabling it",
        "启用时的设置",
        "有効にするときの設定",
        "Configurações ao ativá-la",
    ),
    "method": ("Method", "方法", "メソッド", "Método"),
    "hidden": ("hidden", "隐藏", "非表示", "oculto"),
    "filter_by_tag": ("Filter by tag", "按标签筛选", "タグで絞り込む", "Filtrar por etiqueta"),
    "all_tags": ("All", "全部", "すべて", "Todos"),
    "tags": ("Tags", "标签", "タグ", "Etiquetas"),
    "version": ("Version", "版本", "バージョン", "Versão"),
    "author": ("Author", "作者", "作成者", "Autor"),
    "repository": ("Repository", "代码仓库", "リポジトリ", "Repositório"),
    "minimum_dify": (
        "Minimum Dify version",
        "最低 Dify 版本",
        "Dify の最低バージョン",
        "Versão mínima do Dify",
    ),
    "runner": ("Runner", "运行环境", "ランナー", "Ambiente de execução"),
    "validation": ("Validation", "校验", "検証", "Validação"),
    "valid": ("valid", "通过", "合格", "válido"),
    # no finding, but nothing ran an example: not green (the basis beside it says why)
    "badge_no_findings": ("no findings", "无问题", "指摘なし", "sem apontamentos"),
    "errors": ("errors", "错误", "エラー", "erros"),
    "warnings": ("warnings", "警告", "警告", "avisos"),
    # one finding: the word a count of exactly one takes
    "error_one": ("error", "错误", "エラー", "erro"),
    "warning_one": ("warning", "警告", "警告", "aviso"),
    "more_plugins": (
        "The other plugins (the catalog shows them as cards when JavaScript runs):",
        "其余插件（启用 JavaScript 时以卡片显示）：",
        "その他のプラグイン（JavaScript が動くとカードで表示されます）:",
        "Os demais plugins (com JavaScript, o catálogo os mostra como cartões):",
    ),
    "llms_title": (
        "Dify Plugin Registry",
        "Dify 插件注册表",
        "Dify プラグインレジストリ",
        "Registro de plugins do Dify",
    ),
    "llms_summary": (
        "Every Dify tool plugin of this registry and its tools, one line each, linked to a Markdown "
        "page with the parameters, output variables and example runs.",
        "本注册表中的每个 Dify 工具插件及其工具，每项一行，"
        "链接到包含参数、输出变量和示例运行的 Markdown 页面。",
        "このレジストリのすべての Dify ツールプラグインとそのツールを 1 行ずつ挙げ、"
        "パラメーター・出力変数・実行例を載せた Markdown ページへリンクします。",
        "Cada plugin de ferramentas do Dify deste registro e suas ferramentas, uma linha cada, com link "
        "para uma página Markdown com parâmetros, variáveis de saída e execuções de exemplo.",
    ),
    "llms_languages": ("Other languages:", "其他语言：", "他の言語:", "Outros idiomas:"),
    "docs": ("Docs", "文档", "ドキュメント", "Documentação"),
    # Dify's plugin tags (the marketplace's fixed list); a tag outside it is shown as written
    "tag_agent": ("Agent", "智能体", "エージェント", "Agente"),
    "tag_rag": ("RAG", "RAG", "RAG", "RAG"),
    "tag_search": ("Search", "搜索", "検索", "Pesquisa"),
    "tag_image": ("Image", "图像", "画像", "Imagem"),
    "tag_videos": ("Videos", "视频", "動画", "Vídeos"),
    "tag_weather": ("Weather", "天气", "天気", "Clima"),
    "tag_finance": ("Finance", "金融", "金融", "Finanças"),
    "tag_design": ("Design", "设计", "デザイン", "Design"),
    "tag_travel": ("Travel", "旅行", "旅行", "Viagem"),
    "tag_social": ("Social", "社交", "ソーシャル", "Social"),
    "tag_news": ("News", "新闻", "ニュース", "Notícias"),
    "tag_medical": ("Medical", "医疗", "医療", "Saúde"),
    "tag_productivity": ("Productivity", "效率", "生産性", "Produtividade"),
    "tag_education": ("Education", "教育", "教育", "Educação"),
    "tag_business": ("Business", "商业", "ビジネス", "Negócios"),
    "tag_entertainment": ("Entertainment", "娱乐", "エンタメ", "Entretenimento"),
    "tag_utilities": ("Utilities", "工具", "ユーティリティ", "Utilitários"),
    "tag_other": ("Other", "其他", "その他", "Outros"),
    "notes": ("notes", "提示", "注記", "notas"),
    "no_plugins": (
        "The registry holds no plugins yet.",
        "注册表中还没有插件。",
        "レジストリにはまだプラグインがありません。",
        "O registro ainda não tem plugins.",
    ),
    "readme": ("README", "说明文档", "README", "README"),
    "no_readme": (
        "This plugin has no README.",
        "此插件没有说明文档。",
        "このプラグインには README がありません。",
        "Este plugin não tem README.",
    ),
    "credentials": (
        "Provider credentials",
        "提供者凭据",
        "プロバイダーの認証情報",
        "Credenciais do provedor",
    ),
    "no_credentials": (
        "This provider needs no credentials.",
        "此提供者不需要凭据。",
        "このプロバイダーは認証情報を必要としません。",
        "Este provedor não precisa de credenciais.",
    ),
    "provider": ("Provider", "提供者", "プロバイダー", "Provedor"),
    "name": ("Name", "名称", "名前", "Nome"),
    "label": ("Label", "标签名", "ラベル", "Rótulo"),
    "type": ("Type", "类型", "型", "Tipo"),
    "required": ("Required", "必填", "必須", "Obrigatório"),
    "yes": ("yes", "是", "はい", "sim"),
    "no": ("no", "否", "いいえ", "não"),
    "default": ("Default", "默认值", "既定値", "Padrão"),
    "help": ("Help", "帮助", "ヘルプ", "Ajuda"),
    "link": ("Link", "链接", "リンク", "Link"),
    "form": ("Form", "表单", "フォーム", "Formulário"),
    "options": ("Options", "选项", "選択肢", "Opções"),
    "description": ("Description", "描述", "説明", "Descrição"),
    "for_people": ("For people", "面向用户", "利用者向け", "Para pessoas"),
    "for_model": ("For the model", "面向模型", "モデル向け", "Para o modelo"),
    "findings": ("Findings", "检查结果", "検出事項", "Apontamentos"),
    "no_findings": ("No findings.", "没有发现问题。", "検出事項はありません。", "Nenhum apontamento."),
    "rule": ("Rule", "规则", "ルール", "Regra"),
    "rules": ("Rules", "校验规则", "検証ルール", "Regras"),
    "severity": ("Severity", "严重程度", "重大度", "Gravidade"),
    "location": ("Location", "位置", "場所", "Local"),
    "message": ("Message", "信息", "メッセージ", "Mensagem"),
    "hint": ("Hint", "建议", "ヒント", "Dica"),
    "other_kinds": ("Other plugin kinds", "其他插件类型", "その他のプラグイン種別", "Outros tipos de plugin"),
    "parameters": ("Parameters", "参数", "パラメーター", "Parâmetros"),
    "no_parameters": (
        "This tool takes no parameters.",
        "此工具没有参数。",
        "このツールにはパラメーターがありません。",
        "Esta ferramenta não recebe parâmetros.",
    ),
    "outputs": ("Output variables", "输出变量", "出力変数", "Variáveis de saída"),
    "variable": ("Variable", "变量", "変数", "Variável"),
    "schema": ("Schema", "Schema", "スキーマ", "Schema"),
    "schemas": ("Schemas", "Schema", "スキーマ", "Schemas"),
    "fixed_text": (
        "Text messages of the tool, concatenated.",
        "工具的文本消息，依次拼接。",
        "ツールのテキストメッセージを連結したもの。",
        "Mensagens de texto da ferramenta, concatenadas.",
    ),
    "fixed_files": (
        "Files from blob and image messages.",
        "来自 blob 与图片消息的文件。",
        "blob メッセージと画像メッセージのファイル。",
        "Arquivos das mensagens de blob e de imagem.",
    ),
    "fixed_json": (
        "JSON messages of the tool, as a list.",
        "工具的 JSON 消息列表。",
        "ツールの JSON メッセージのリスト。",
        "Mensagens JSON da ferramenta, em lista.",
    ),
    # The fixed outputs are said once, on the schemas page, instead of in every tool's table.
    "fixed_outputs": (
        "Fixed outputs of every tool",
        "所有工具的固定输出",
        "すべてのツールの固定出力",
        "Saídas fixas de toda ferramenta",
    ),
    "fixed_outputs_intro": (
        "Besides the variables its output_schema declares, every tool node has these three:",
        "除了 output_schema 声明的变量，每个工具节点都有以下三个变量：",
        "output_schema で宣言された変数のほかに、すべてのツールノードには次の三つがあります：",
        "Além das variáveis que o output_schema declara, todo nó de ferramenta tem estas três:",
    ),
    "fixed_outputs_note": (
        "Every tool also has the fixed outputs",
        "每个工具还有固定输出",
        "すべてのツールには固定出力もあります：",
        "Toda ferramenta também tem as saídas fixas",
    ),
    "no_output_schema": (
        "The tool declares no output_schema: only the fixed variables exist.",
        "此工具没有声明 output_schema，只有固定变量。",
        "このツールは output_schema を宣言していないため、固定の変数のみです。",
        "A ferramenta não declara output_schema: só existem as variáveis fixas.",
    ),
    "in_workflow": ("In a workflow", "在工作流中引用", "ワークフローでの参照", "Em um fluxo de trabalho"),
    "in_workflow_intro": (
        "A later node reads each output with this variable syntax, the tool node's id in place of "
        "node_id (the variable picker writes the same):",
        "后续节点用以下变量语法读取各个输出，把 node_id 换成工具节点的 ID（变量选择器写入的也是它）：",
        "後続のノードは次の変数構文で各出力を読み取ります。node_id はツールノードの ID に置き換えます"
        "（変数ピッカーが書き込むものと同じです）：",
        "Um nó seguinte lê cada saída com esta sintaxe de variável, com o id do nó da ferramenta no "
        "lugar de node_id (o seletor de variáveis escreve o mesmo):",
    ),
    # What a tool page says above its references; the schemas page says it in full (in_workflow_intro).
    "in_workflow_short": (
        "node_id stands for the tool node's id.",
        "node_id 指工具节点的 ID。",
        "node_id はツールノードの ID です。",
        "node_id é o id do nó da ferramenta.",
    ),
    "schemas_unavailable": (
        "Schema references are not resolved in this build.",
        "本次构建未解析 Schema 引用。",
        "このビルドではスキーマ参照を解決していません。",
        "As referências de schema não foram resolvidas nesta compilação.",
    ),
    "examples": ("Example runs", "示例运行", "実行例", "Execuções de exemplo"),
    "no_examples": (
        "No example runs for this tool.",
        "此工具没有示例运行。",
        "このツールの実行例はありません。",
        "Nenhuma execução de exemplo para esta ferramenta.",
    ),
    "examples_from_registry": (
        "These examples come from this registry, not from the plugin's author:",
        "这些示例来自本注册表，而非插件作者：",
        "これらの例はプラグインの作者ではなく、このレジストリが用意したものです：",
        "Estes exemplos vêm deste registro, não do autor do plugin:",
    ),
    "inputs": ("Inputs", "输入", "入力", "Entradas"),
    # a trigger event's run on an example delivery
    "delivery": ("Delivery", "推送请求", "配信リクエスト", "Entrega"),
    "body_file": ("body from", "请求体来自", "本文の出典", "corpo de"),
    "header": ("Header", "请求头", "ヘッダー", "Cabeçalho"),
    "body_cut": (
        "Only the start of the body is shown",
        "仅显示请求体的开头部分",
        "本文の先頭のみを表示しています",
        "Só o início do corpo é mostrado",
    ),
    "subscription_properties": (
        "Subscription properties",
        "订阅属性",
        "サブスクリプションのプロパティ",
        "Propriedades da assinatura",
    ),
    "dispatched": (
        "Events the dispatch named:",
        "分发指定的事件：",
        "ディスパッチが指定したイベント：",
        "Eventos que o despacho indicou:",
    ),
    "output_text": ("Text", "文本", "テキスト", "Texto"),
    "output_json": ("JSON", "JSON", "JSON", "JSON"),
    "output_files": ("Files", "文件", "ファイル", "Arquivos"),
    "output_links": ("Links", "链接", "リンク", "Links"),
    "variables": ("Variables", "变量", "変数", "Variáveis"),
    "value": ("Value", "值", "値", "Valor"),
    "invented_inputs": ("Invented inputs", "虚构的输入", "架空の入力", "Entradas inventadas"),
    "made_from_invented": (
        "Made from invented inputs: it shows what the tool does with them, not that its answer is right.",
        "由虚构的输入产生：它显示工具如何处理这些输入，并不证明结果正确。",
        "架空の入力から生成: ツールがそれをどう扱うかを示すもので、結果が正しいことの証明ではありません。",
        "Feito com entradas inventadas: mostra o que a ferramenta faz com elas, não que a resposta "
        "esteja certa.",
    ),
    "unproven": (
        "no run showed it working",
        "没有运行显示其可用",
        "動作を示す実行なし",
        "nenhuma execução mostrou funcionar",
    ),
    "checked_by_static": (
        "static checks only",
        "仅静态检查",
        "静的チェックのみ",
        "apenas verificações estáticas",
    ),
    "checked_by_examples": ("examples run", "已运行示例", "例を実行済み", "exemplos executados"),
    "checked_by_smoke": (
        "smoke runs only",
        "仅冒烟运行",
        "スモーク実行のみ",
        "apenas execuções de fumaça",
    ),
    "smoke": (
        "smoke run (no example file)",
        "冒烟运行（无示例文件）",
        "スモーク実行（例ファイルなし）",
        "execução de fumaça (sem arquivo de exemplos)",
    ),
    "replayed_from": (
        "Replayed from a recording of",
        "回放自录制于",
        "次の日付の記録から再生:",
        "Reproduzido de uma gravação de",
    ),
    "requests": ("HTTP requests", "HTTP 请求", "HTTP リクエスト", "Requisições HTTP"),
    "download": ("Download", "下载", "ダウンロード", "Baixar"),
    "size": ("Size", "大小", "サイズ", "Tamanho"),
    "path": ("Path", "路径", "パス", "Caminho"),
    "properties": ("Properties", "属性", "プロパティ", "Propriedades"),
    "no_properties": (
        "This schema names no properties.",
        "此 schema 没有命名的属性。",
        "このスキーマには名前付きのプロパティがありません。",
        "Este schema não nomeia propriedades.",
    ),
    "raw_schema": ("Raw JSON Schema", "原始 JSON Schema", "JSON Schema 本体", "JSON Schema bruto"),
    "schema_catalog": (
        "Schema catalog (SchemaStore format)",
        "Schema 目录（SchemaStore 格式）",
        "スキーマカタログ（SchemaStore 形式）",
        "Catálogo de schemas (formato SchemaStore)",
    ),
    "used_by": ("Used by", "使用者", "使用しているツール", "Usado por"),
    "example": ("Example", "示例", "例", "Exemplo"),
    "no_schemas": (
        "No schemas are hosted in this build.",
        "本次构建没有托管的 Schema。",
        "このビルドにはホストされたスキーマがありません。",
        "Nenhum schema hospedado nesta compilação.",
    ),
    "translations": ("Translations", "翻译", "翻訳", "Traduções"),
    "coverage": ("Translation coverage", "翻译覆盖率", "翻訳カバレッジ", "Cobertura de tradução"),
    "coverage_intro": (
        "Labels and descriptions each plugin lacks in a language; "
        "the site shows the English text there, marked.",
        "各插件在各语言中缺少的标签和描述；网站在这些位置显示英文并加以标记。",
        "各プラグインが言語ごとに欠いているラベルと説明。サイトではその箇所に英語を印付きで表示します。",
        "Rótulos e descrições que faltam a cada plugin em cada idioma; "
        "o site mostra ali o texto em inglês, marcado.",
    ),
    "missing": ("Missing", "缺失", "未翻訳", "Faltando"),
    "complete": ("complete", "完整", "完了", "completo"),
    "language": ("Language", "语言", "言語", "Idioma"),
    # The page of a plugin, tool or rule that a language serves only in English.
    "english_only": (
        "This page has no text in this language: it is served in English only.",
        "此页面没有简体中文文本，只有英文版本。",
        "このページには日本語のテキストがないため、英語版のみがあります。",
        "Esta página não tem textos em português: existe somente em inglês.",
    ),
    "english_page": ("English page", "查看英文页面", "英語のページへ", "Ver a página em inglês"),
    "fallback": (
        "not translated; shown in English",
        "未翻译，显示英文",
        "未翻訳のため英語で表示",
        "não traduzido; exibido em inglês",
    ),
    "page_untranslated": (
        "This page is not translated yet; it is shown in English.",
        "本页尚未翻译，以下为英文原文。",
        "このページはまだ翻訳されていないため、英語で表示しています。",
        "Esta página ainda não foi traduzida; ela é exibida em inglês.",
    ),
    "truncated": ("shortened", "已截断", "省略", "encurtado"),
    "findings_of_rule": (
        "Every finding of this rule links to this page.",
        "此规则的每条检查结果都链接到本页。",
        "このルールの検出事項はすべてこのページにリンクしています。",
        "Todo apontamento desta regra aponta para esta página.",
    ),
    "access_domains": ("Access domains", "访问的域名", "アクセスするドメイン", "Domínios acessados"),
    "domains_found": (
        "Named in the code",
        "代码中出现的域名",
        "コードに記載されたドメイン",
        "Citados no código",
    ),
    "domains_built": (
        "Network calls that build their address at run time",
        "运行时才拼出地址的网络调用",
        "実行時にアドレスを組み立てるネットワーク呼び出し",
        "Chamadas de rede que montam o endereço em tempo de execução",
    ),
    "domains_observed": (
        "Contacted by the example runs",
        "示例运行实际访问的主机",
        "サンプル実行が実際に接続したホスト",
        "Contatados pelas execuções de exemplo",
    ),
    "history": ("Version history", "版本历史", "バージョン履歴", "Histórico de versões"),
    "date": ("Date", "日期", "日付", "Data"),
    "commit": ("Commit", "提交", "コミット", "Commit"),
    "changes": ("Interface changes", "接口变更", "インターフェースの変更", "Mudanças de interface"),
    "breaking": ("breaking", "不兼容", "互換性なし", "incompatível"),
    "compatible": ("compatible", "兼容", "互換", "compatível"),
    "note": ("note", "说明", "注記", "nota"),
    "first_version": (
        "The first version in the history.",
        "历史中的第一个版本。",
        "履歴で最初のバージョンです。",
        "A primeira versão do histórico.",
    ),
    "no_interface_change": (
        "No interface change.",
        "接口没有变化。",
        "インターフェースの変更はありません。",
        "Nenhuma mudança de interface.",
    ),
    "multiple": ("several values", "多个值", "複数の値", "vários valores"),
    "new_in_version": ("new in this version", "本版本新增", "このバージョンで追加", "novo nesta versão"),
    # The search box's words (the box is built by its script, which reads them from `script_words`).
    "search_placeholder": ("Search", "搜索", "検索", "Buscar"),
    "search_loading": ("Loading the search", "正在加载搜索", "検索を準備しています", "Carregando a busca"),
    "search_none": (
        "No matching page",
        "没有匹配的页面",
        "一致するページはありません",
        "Nenhuma página encontrada",
    ),
    "search_one": ("1 matching page", "1 个匹配的页面", "一致するページ 1 件", "1 página encontrada"),
    "search_other": ("# matching pages", "# 个匹配的页面", "一致するページ # 件", "# páginas encontradas"),
    "unsafe_link": (
        "link not shown: only http(s) addresses are linked",
        "链接未显示：仅链接 http(s) 地址",
        "リンクは表示されません: http(s) のアドレスのみリンクします",
        "link não exibido: apenas endereços http(s) viram links",
    ),
}
# The run results' words are the runner's own vocabulary (`generator/run/result.py`).
_TEXTS.update({f"result_{result.value}": words for result, words in LABELS.items()})
_ORDER = ("en_US", "zh_Hans", "ja_JP", "pt_BR")


@cache
def texts_for(language: str) -> Mapping[str, str]:
    """The site's words in `language` (a Dify locale code)."""
    column = _ORDER.index(language)
    return MappingProxyType({key: values[column] for key, values in _TEXTS.items()})


# The words the site's scripts show (the "shown in English" mark's tooltip, the search box): sent
# once in the shared script for every language instead of in each of thousands of pages.
SCRIPT_WORDS = (
    "fallback",
    # what a search result is (`what` in generator/site/search.py)
    "plugin",
    "kind_tools",
    "kind_triggers",
    "kind_datasources",
    "kind_models",
    "kind_agent_strategies",
    "kind_endpoints",
    "trigger_event",
    "search_placeholder",
    "search_loading",
    "search_none",
    "search_one",
    "search_other",
)


def script_words(languages: Mapping[str, str]) -> str:
    """The scripts' words as a JavaScript statement: `languages` maps each page language (its
    `<html lang>`) to its Dify locale code."""
    table = {tag: {key: texts_for(code)[key] for key in SCRIPT_WORDS} for tag, code in languages.items()}
    return f"var DR_WORDS = {json.dumps(table, ensure_ascii=False, sort_keys=True)};\n"
