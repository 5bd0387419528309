from dify_plugin.interfaces.datasource.online_document import OnlineDocumentDatasource


class Pages(OnlineDocumentDatasource):
    def _get_pages(self, datasource_parameters):
        raise NotImplementedError

    def _get_content(self, page):
        raise NotImplementedError
