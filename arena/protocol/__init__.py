"""The wire protocol: generated protobuf code (``_pb``) and the one codec that maps it."""
