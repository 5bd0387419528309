from collections.abc import Generator

from dify_plugin.entities.datasource import (
    DatasourceMessage,
    OnlineDriveBrowseFilesRequest,
    OnlineDriveBrowseFilesResponse,
    OnlineDriveDownloadFileRequest,
    OnlineDriveFileBucket,
)
from dify_plugin.interfaces.datasource.online_drive import OnlineDriveDatasource


class DriveFiles(OnlineDriveDatasource):
    def _browse_files(self, request: OnlineDriveBrowseFilesRequest) -> OnlineDriveBrowseFilesResponse:
        bucket = OnlineDriveFileBucket(bucket=None, files=[], is_truncated=False, next_page_parameters=None)
        return OnlineDriveBrowseFilesResponse(result=[bucket])

    def _download_file(self, request: OnlineDriveDownloadFileRequest) -> Generator[DatasourceMessage, None, None]:
        yield self.create_blob_message(b"", meta={"file_name": request.id})
