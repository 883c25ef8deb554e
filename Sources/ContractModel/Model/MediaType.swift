import ContractRequests

/// The media-type rules of ``ContractRequests/MediaType``, by their old name here, for the
/// commands that import ContractModel alone.
public typealias MediaType = ContractRequests.MediaType
