from some_library.tools import SearchTool

Mixed = SearchTool
