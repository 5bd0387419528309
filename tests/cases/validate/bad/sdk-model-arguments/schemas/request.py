from pydantic import BaseModel, ConfigDict, Field


class SearchRequest(BaseModel):
    query: str
    start: int | None = Field(None, alias="from")
    size: int = Field(10, alias="limit")


class PageRequest(BaseModel):
    page: int = Field(..., alias="pageNumber")


class NamedRequest(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    start: int | None = Field(None, alias="from")
