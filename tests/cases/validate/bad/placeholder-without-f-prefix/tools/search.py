import logging
from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

API = "https://api.example.com/v1/search"


class Search(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = tool_parameters["query"]
        try:
            response = requests.get(API, params={"q": query}, timeout=30)
            found = len(response.json()["items"])
            yield self.create_text_message(f"Query: {query}\n" + "Found {found} notes")  # told
        except Exception as e:
            yield self.create_text_message("Search failed: {str(e)}")  # told
            return
        template = "Results for {query}"  # silent: a name, maybe a template
        yield self.create_text_message(template.format(query=query))
        yield self.create_text_message("Results for {query}".format(query=query))  # silent
        yield self.create_text_message("Shown: {query}", **{})  # silent: values by name
        yield self.create_json_message({"pattern": r"\d{3}", "shape": '{"a": 1}', "unknown": "{nothing}"})
        logging.info("searched {query}")  # silent: a log line
        print("searched {query}")  # silent: no user sees it
        yield self.create_text_message(API.replace("{found}", str(found)))  # silent: looked up, not shown
        yield self.create_text_message(self._about(query))
        yield self.create_text_message("{{query}} is a template field")  # silent: double braces
        if not found:
            raise ValueError("nothing found at {response.url}")  # told

    def _about(self, query: str) -> str:
        return fill("About {query}", {"query": query})  # silent: values by key


def fill(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace("{" + key + "}", value)
    return template
