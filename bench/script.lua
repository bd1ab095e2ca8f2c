-- calltrace benchmark: a small CPU-bound Lua workload (table ops, closures,
-- string building, sorting).  N comes from the first argument.
local N = tonumber(arg and arg[1]) or 20000

local function make_point(x, y) return { x = x, y = y } end
local function dist2(p, q) local dx, dy = p.x - q.x, p.y - q.y; return dx * dx + dy * dy end

local pts = {}
for i = 1, N do pts[i] = make_point(i % 97, (i * 7) % 89) end

local acc = 0
for i = 2, N do acc = acc + dist2(pts[i], pts[i - 1]) end

table.sort(pts, function(a, b) if a.x ~= b.x then return a.x < b.x end return a.y < b.y end)

local words = {}
for i = 1, N // 4 do words[#words + 1] = string.format("w%d", i % 101) end
local counts = {}
for _, w in ipairs(words) do counts[w] = (counts[w] or 0) + 1 end
local s = table.concat(words, " ", 1, math.min(#words, 200))

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
acc = acc + fib(18)

print(acc, #s, counts["w1"])
