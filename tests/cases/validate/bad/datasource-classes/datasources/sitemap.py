from dify_plugin.interfaces.datasource.website import WebsiteCrawlDatasource


class Sitemap(WebsiteCrawlDatasource):
    def crawl(self, datasource_parameters):
        yield self.create_crawl_message(None)
