"""ReturnValuesOnConditionCheckFailure for botocore releases that predate it.

DynamoDB added `ReturnValuesOnConditionCheckFailure` to PutItem, UpdateItem and DeleteItem in
June 2023 (botocore 1.29.16x); Debian 12's python3-botocore (1.29.27) does not know it yet, so its
parameter validation refuses the member and its error parser drops the `Item` that
ConditionalCheckFailedException then carries. `install` adds both through botocore's documented
event hooks, exactly as a newer botocore does it from the service model:

- before-parameter-build: take the member out of the parameters (so validation passes);
- before-call: put it into the serialized JSON body;
- after-call: on an error response, copy the body's `Item` into the parsed error, parsed with the
  model's AttributeMap shape (so `error.response["Item"]` looks as with a newer botocore).

With a botocore that models the member, `install` does nothing.
"""
import json

import botocore.parsers

PARAM = "ReturnValuesOnConditionCheckFailure"
OPERATIONS = ("PutItem", "UpdateItem", "DeleteItem")


def install(events, service_model):
    if PARAM in service_model.operation_model("PutItem").input_shape.members:
        return
    item_shape = service_model.shape_for("AttributeMap")
    parser = botocore.parsers.JSONParser()

    def stash(params, context, **_):
        if PARAM in params:
            context[PARAM] = params.pop(PARAM)

    def inject(params, context, **_):
        if PARAM not in context:
            return
        body = json.loads(params["body"] or b"{}")
        body[PARAM] = context[PARAM]
        params["body"] = json.dumps(body).encode("utf-8")

    def extract(http_response, parsed, context, **_):
        if PARAM not in context or http_response.status_code < 300:
            return
        body = json.loads(http_response.content or b"{}")
        if "Item" in body:
            parsed["Item"] = parser._parse_shape(item_shape, body["Item"])

    for op in OPERATIONS:
        events.register(f"before-parameter-build.dynamodb.{op}", stash)
        events.register(f"before-call.dynamodb.{op}", inject)
        events.register(f"after-call.dynamodb.{op}", extract)
