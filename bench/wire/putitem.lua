-- wrk script: PutItem of a random key of the loaded key space (an overwrite, so the table's size
-- stays put during the run) with a random item of load.py's shape and size (~200 bytes).
OPERATION = "PutItem"
local description = string.rep("x", 101)
EXPECT = '{}'  -- what CHECK=1 looks for in a response
function build_body()
  return string.format('{"TableName":"%s","Item":{"PK":{"S":"%s"},"SK":{"S":"%s"},'
                       .. '"status":{"S":"SHIPPED"},"total":{"N":"%d.%02d"},"paid":{"BOOL":true},'
                       .. '"counter":{"N":"%d"},"address":{"M":{"city":{"S":"Paris"},'
                       .. '"zip":{"S":"75001"}}},"description":{"S":"%s"}}}',
                       TABLE, random_pk(), random_sk(), math.random(100, 999), math.random(0, 99),
                       math.random(0, 9), description)
end
dofile((debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or ".") .. "/common.lua")
