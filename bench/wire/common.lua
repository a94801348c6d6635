-- Shared by getitem.lua, putitem.lua and query.lua (each defines build_body() and then loads this
-- file). Each wrk thread pre-builds a pool of POOL complete HTTP requests with random keys from the
-- loaded key space (PKS partition keys x SKS sort keys, the layout of load.py) and request() hands
-- out a random one: the client spends its CPU on sockets, not on formatting JSON in Lua, which
-- matters on a machine where wrk and the server share 2 cores. done() prints one
-- machine-readable RESULT line that run.sh turns into the table.
--
-- Environment: TABLE (WireBench), PKS (10000), SKS (10), POOL (20000); CHECK (below).


TABLE = os.getenv("TABLE") or "WireBench"
PKS = tonumber(os.getenv("PKS") or "10000")
SKS = tonumber(os.getenv("SKS") or "10")
POOL = tonumber(os.getenv("POOL") or "20000")

-- The same headers load.py sends (dynalite wants an Authorization header and a date to exist; it
-- does not verify the signature, partstore and nginx ignore them).
HEADERS = {
  ["Content-Type"] = "application/x-amz-json-1.0",
  ["X-Amz-Date"] = "20260101T000000Z",
  ["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20260101/us-east-1/dynamodb/aws4_request, "
    .. "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" .. string.rep("0", 64),
}

function random_pk() return string.format("USER#%06d", math.random(0, PKS - 1)) end
function random_sk() return string.format("ORDER#%02d", math.random(0, SKS - 1)) end

local threads = {}
local counter = 1

function setup(thread)
  thread:set("id", counter)
  threads[counter] = thread
  counter = counter + 1
end

local pool = {}

function init(args)
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
  local h = {}
  for k, v in pairs(HEADERS) do h[k] = v end
  h["X-Amz-Target"] = "DynamoDB_20120810." .. OPERATION
  for i = 1, POOL do
    pool[i] = wrk.format("POST", "/", h, build_body())
  end
end

function request()
  return pool[math.random(1, POOL)]
end

-- CHECK=1: also inspect every response (slower: wrk then parses and hands each body to Lua) and
-- count those that are not a 200 with EXPECT (the op script's marker, e.g. '"Item":') in the body.
if os.getenv("CHECK") == "1" then
  bad, checked, sample = 0, 0, nil
  function response(status, headers, body)
    checked = checked + 1
    if status ~= 200 or not string.find(body, EXPECT, 1, true) then
      bad = bad + 1
      if sample == nil then sample = status .. " " .. body:sub(1, 300) end
    end
  end
end

function done(summary, latency, requests)
  if os.getenv("CHECK") == "1" then
    local b, c = 0, 0
    for _, t in ipairs(threads) do
      b = b + t:get("bad"); c = c + t:get("checked")
      local s = t:get("sample")
      if s then io.write("CHECK sample of a bad response: " .. s .. "\n") end
    end
    io.write(string.format("CHECK checked=%d bad=%d\n", c, b))
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.0f p50_us=%d p90_us=%d p99_us=%d max_us=%d "
    .. "connect_errors=%d read_errors=%d write_errors=%d status_errors=%d timeouts=%d\n",
    summary.requests, summary.duration, summary.requests / summary.duration * 1e6,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
