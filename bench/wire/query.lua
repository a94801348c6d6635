-- wrk script: Query of one random partition, PK = :pk: returns its SKS (10) items, ~2.9 KB of JSON.
OPERATION = "Query"
EXPECT = '"Count":' .. (os.getenv("SKS") or "10")  -- what CHECK=1 looks for in a response
function build_body()
  return string.format('{"TableName":"%s","KeyConditionExpression":"PK = :pk",'
                       .. '"ExpressionAttributeValues":{":pk":{"S":"%s"}}}', TABLE, random_pk())
end
dofile((debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/common.lua")
