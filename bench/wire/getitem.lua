-- wrk script: GetItem of a random existing item (see common.lua, load.py).
OPERATION = "GetItem"
EXPECT = '"Item":{'  -- what CHECK=1 looks for in a response
function build_body()
  return string.format('{"TableName":"%s","Key":{"PK":{"S":"%s"},"SK":{"S":"%s"}}}',
                       TABLE, random_pk(), random_sk())
end
dofile((debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/common.lua")
