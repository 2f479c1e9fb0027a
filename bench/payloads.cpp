#include "bench/payloads.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>

namespace jitser::payloads {
namespace {

Status first_failure(std::initializer_list<std::function<Status()>> steps) {
  for (const auto& step : steps) {
    if (Status s = step(); !s) return s;
  }
  return Status();
}

// The same 100 characters, varied per index so no two strings are equal.
std::string text100(std::size_t i) {
  std::string s(100, ' ');
  for (std::size_t k = 0; k < s.size(); ++k) s[k] = static_cast<char>('a' + (i * 7 + k * 13) % 26);
  const std::string n = std::to_string(i);
  s.replace(0, n.size(), n);
  return s;
}

// Holds a reference to every account reachable, so none is freed while links are cut. An
// account is added once, however many references reach it: emplace made a node and copied the
// reference for every one, which was most of the cost of destroying a Graph.
template <class A, class Seen>
void collect(const std::shared_ptr<A>& a, Seen& seen) {
  if (!a || !seen.try_emplace(a.get(), a).second) return;
  collect(a->manager, seen);
  for (const auto& f : a->friends) collect(f, seen);
}

template <class G, class Seen>
void break_cycles(G& g, Seen& seen) {
  for (const auto& a : g.accounts) collect(a, seen);
  for (const auto& [name, a] : g.by_name) collect(a, seen);
  collect(g.owner, seen);
  for (const auto& [raw, a] : seen) {
    a->manager.reset();
    a->friends.clear();
  }
}

// Equal values and equal sharing: the same positions share one account in both graphs.
template <class G>
bool graphs_equal(const G& a, const G& b) {
  if (a.accounts.size() != b.accounts.size()) return false;
  // Position of each account of a graph; sharing is equal when positions match.
  auto index_of = [](const G& g, const auto& p) -> long {
    if (!p) return -1;
    for (std::size_t i = 0; i < g.accounts.size(); ++i) {
      if (g.accounts[i] == p) return static_cast<long>(i);
    }
    return -2;
  };
  for (std::size_t i = 0; i < a.accounts.size(); ++i) {
    const auto& x = *a.accounts[i];
    const auto& y = *b.accounts[i];
    if (x.id != y.id || x.name != y.name || x.role != y.role || x.balance != y.balance ||
        x.avatar != y.avatar || x.counters != y.counters || x.created != y.created ||
        index_of(a, x.manager) != index_of(b, y.manager) || x.friends.size() != y.friends.size()) {
      return false;
    }
    for (std::size_t k = 0; k < x.friends.size(); ++k) {
      if (index_of(a, x.friends[k]) != index_of(b, y.friends[k])) return false;
    }
  }
  if (a.by_name.size() != b.by_name.size()) return false;
  for (auto ia = a.by_name.begin(), ib = b.by_name.begin(); ia != a.by_name.end(); ++ia, ++ib) {
    if (ia->first != ib->first || index_of(a, ia->second) != index_of(b, ib->second)) return false;
  }
  const bool attachments_equal = (a.attachment == nullptr) == (b.attachment == nullptr) &&
                                 (!a.attachment || *a.attachment == *b.attachment);
  return index_of(a, a.owner) == index_of(b, b.owner) && a.notes == b.notes && a.total == b.total &&
         attachments_equal && a.dims == b.dims && a.ttl == b.ttl;
}

// The sample graph, in std or std::pmr types: `make_account` makes an empty account.
template <class G, class MakeAccount>
void fill_graph(G& g, MakeAccount make_account) {
  constexpr int kAccounts = 20;
  for (int i = 0; i < kAccounts; ++i) {
    auto a = make_account();
    a->id = 1000 + i;
    a->name = "account-" + std::to_string(i);
    a->role = static_cast<Role>(i % 3);
    a->balance = Decimal{123456789 + i * 1001, 2};
    a->avatar.resize(300);
    for (std::size_t k = 0; k < a->avatar.size(); ++k)
      a->avatar[k] = static_cast<std::uint8_t>(i * 31 + k);
    a->counters = {{"logins", i * 3}, {"posts", i * 11}, {"likes", i * 101}};
    a->created = std::chrono::sys_time<std::chrono::microseconds>(
        std::chrono::microseconds(1700000000000000 + i * 1234567));
    g.accounts.push_back(a);
  }
  for (int i = 0; i < kAccounts; ++i) {
    auto& a = *g.accounts[i];
    a.manager = g.accounts[i / 4];  // account 0 manages itself: a cycle of one
    a.friends = {g.accounts[(i + 1) % kAccounts], g.accounts[(i + 7) % kAccounts]};
    g.by_name[a.name] = g.accounts[i];
  }
  g.owner = g.accounts[0];
  g.notes = {{1, "first"}, {333, "note three hundred thirty three"}, {-5, "negative key"}};
  g.total = Decimal{-98765432109, 4};
  g.attachment =
      std::make_unique<Attachment>(Attachment{"report.bin", std::vector<std::uint8_t>(64, 0xAB)});
  g.dims = {3, -4, 5, 1024};
  g.ttl = std::chrono::milliseconds(-1500);
}

template <class A>
Status add_account(Engine& e, const char* name) {
  return e.add(Struct<A>(name)
                   .field("id", &A::id)
                   .field("name", &A::name)
                   .field("role", &A::role)
                   .field("balance", &A::balance)
                   .field("avatar", &A::avatar)
                   .field("counters", &A::counters)
                   .field("created", &A::created)
                   .field("manager", &A::manager)
                   .field("friends", &A::friends));
}

template <class G>
Status add_graph(Engine& e, const char* name) {
  return e.add(Struct<G>(name)
                   .field("accounts", &G::accounts)
                   .field("by_name", &G::by_name)
                   .field("owner", &G::owner)
                   .field("notes", &G::notes)
                   .field("total", &G::total)
                   .field("attachment", &G::attachment)
                   .field("dims", &G::dims)
                   .field("ttl", &G::ttl));
}

// A deep copy of `g` into the empty graph `r`, keeping which positions share an account;
// `make_account` makes an empty account (payloads.h, copy_graph).
template <class G, class MakeAccount>
void copy_graph_into(const G& g, G& r, MakeAccount make_account) {
  using A = typename decltype(g.accounts)::value_type::element_type;
  // The copy of each account, by the original's address: every account of the graph, made up
  // front in address order so that each link finds its copy by binary search.
  std::vector<std::pair<const A*, std::shared_ptr<A>>> made;
  made.reserve(g.accounts.size());
  for (const auto& a : g.accounts) {
    if (a) made.emplace_back(a.get(), make_account());
  }
  std::sort(made.begin(), made.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  made.erase(std::unique(made.begin(), made.end(),
                         [](const auto& x, const auto& y) { return x.first == y.first; }),
             made.end());
  const auto copy_of = [&made](const std::shared_ptr<A>& a) -> std::shared_ptr<A> {
    if (!a) return nullptr;
    const auto at = std::lower_bound(made.begin(), made.end(), a.get(),
                                     [](const auto& x, const A* p) { return x.first < p; });
    if (at == made.end() || at->first != a.get()) std::abort();  // not one of the graph's
    return at->second;
  };
  for (const auto& [from, to] : made) {
    to->id = from->id;
    to->name = from->name;
    to->role = from->role;
    to->balance = from->balance;
    // Sized, then copied as one block, as readers fill it: libstdc++ copies a vector with a
    // polymorphic allocator an element at a time.
    to->avatar.resize(from->avatar.size());
    std::copy(from->avatar.begin(), from->avatar.end(), to->avatar.begin());
    for (const auto& [key, count] : from->counters)
      to->counters.emplace_hint(to->counters.end(), key, count);
    to->created = from->created;
    to->manager = copy_of(from->manager);
    to->friends.reserve(from->friends.size());
    for (const auto& f : from->friends) to->friends.push_back(copy_of(f));
  }
  r.accounts.reserve(g.accounts.size());
  for (const auto& a : g.accounts) r.accounts.push_back(copy_of(a));
  for (const auto& [name, a] : g.by_name) r.by_name.emplace_hint(r.by_name.end(), name, copy_of(a));
  r.owner = copy_of(g.owner);
  r.notes.reserve(g.notes.size());
  for (const auto& [id, note] : g.notes) r.notes.emplace(id, note);
  r.total = g.total;
  if (g.attachment) r.attachment = std::make_unique<Attachment>(*g.attachment);
  r.dims = g.dims;
  r.ttl = g.ttl;
}

}  // namespace

Graph::~Graph() {
  std::map<Account*, std::shared_ptr<Account>> seen;
  break_cycles(*this, seen);
}

Graph& Graph::operator=(Graph&& other) noexcept {
  std::swap(accounts, other.accounts);
  std::swap(by_name, other.by_name);
  std::swap(owner, other.owner);
  std::swap(notes, other.notes);
  std::swap(total, other.total);
  std::swap(attachment, other.attachment);
  std::swap(dims, other.dims);
  std::swap(ttl, other.ttl);
  return *this;
}

bool operator==(const Graph& a, const Graph& b) { return graphs_equal(a, b); }

GraphPmr::~GraphPmr() {
  // In the graph's own memory, which a monotonic arena gives back all at once.
  std::pmr::map<AccountPmr*, std::shared_ptr<AccountPmr>> seen(get_allocator());
  break_cycles(*this, seen);
}

bool operator==(const GraphPmr& a, const GraphPmr& b) { return graphs_equal(a, b); }

Status register_all(Engine& e) {
  return first_failure({
      [&] {
        return e.add(
            Enum<Player>("Player").value("JAVA", Player::JAVA).value("FLASH", Player::FLASH));
      },
      [&] {
        return e.add(Enum<Size>("Size").value("SMALL", Size::SMALL).value("LARGE", Size::LARGE));
      },
      [&] {
        return e.add(Struct<Image>("Image")
                         .field("uri", &Image::uri)
                         .field("title", &Image::title)
                         .field("width", &Image::width)
                         .field("height", &Image::height)
                         .field("size", &Image::size));
      },
      [&] {
        return e.add(Struct<Media>("Media")
                         .field("uri", &Media::uri)
                         .field("title", &Media::title)
                         .field("width", &Media::width)
                         .field("height", &Media::height)
                         .field("format", &Media::format)
                         .field("duration", &Media::duration)
                         .field("size", &Media::size)
                         .field("bitrate", &Media::bitrate)
                         .field("hasBitrate", &Media::hasBitrate)
                         .field("persons", &Media::persons)
                         .field("player", &Media::player)
                         .field("copyright", &Media::copyright));
      },
      [&] {
        return e.add(Struct<MediaContent>("MediaContent")
                         .field("media", &MediaContent::media)
                         .field("images", &MediaContent::images));
      },
      [&] {
        return e.add(Struct<Sample>("Sample")
                         .field("intValue", &Sample::intValue)
                         .field("longValue", &Sample::longValue)
                         .field("floatValue", &Sample::floatValue)
                         .field("doubleValue", &Sample::doubleValue)
                         .field("shortValue", &Sample::shortValue)
                         .field("charValue", &Sample::charValue)
                         .field("booleanValue", &Sample::booleanValue)
                         .field("IntValue", &Sample::IntValue)
                         .field("LongValue", &Sample::LongValue)
                         .field("FloatValue", &Sample::FloatValue)
                         .field("DoubleValue", &Sample::DoubleValue)
                         .field("ShortValue", &Sample::ShortValue)
                         .field("CharValue", &Sample::CharValue)
                         .field("BooleanValue", &Sample::BooleanValue)
                         .field("intArray", &Sample::intArray)
                         .field("longArray", &Sample::longArray)
                         .field("floatArray", &Sample::floatArray)
                         .field("doubleArray", &Sample::doubleArray)
                         .field("shortArray", &Sample::shortArray)
                         .field("charArray", &Sample::charArray)
                         .field("booleanArray", &Sample::booleanArray)
                         .field("string", &Sample::string));
      },
      [&] {
        return e.add(Struct<A1>("A1")
                         .field("id", &A1::id)
                         .field("name", &A1::name)
                         .field("score", &A1::score)
                         .field("active", &A1::active)
                         .field("tags", &A1::tags)
                         .field("timestamp", &A1::timestamp));
      },
      [&] {
        return e.add(Struct<Moshi>("Moshi")
                         .field("a", &Moshi::a)
                         .field("b", &Moshi::b, opt().default_to(5))
                         .field("c", &Moshi::c));
      },
      [&] { return e.add(Struct<Foo>("Foo").field("bar", &Foo::bar).field("baz", &Foo::baz)); },
      [&] {
        return e.add(Struct<FooImmutable>("FooImmutable")
                         .field("bar", &FooImmutable::bar)
                         .field("baz", &FooImmutable::baz));
      },
      [&] {
        return e.add(Struct<FooWithDefault>("FooWithDefault")
                         .field("bar", &FooWithDefault::bar)
                         .field("baz", &FooWithDefault::baz, opt().default_to(42)));
      },
      [&] { return e.add(Struct<Bizz>("Bizz").wraps("value", &Bizz::value)); },
      [&] {
        return e.add(Struct<FooWithValueClass>("FooWithValueClass")
                         .field("bar", &FooWithValueClass::bar)
                         .field("bizz", &FooWithValueClass::bizz));
      },
      [&] {
        return e.add(Enum<Role>("Role")
                         .value("Admin", Role::Admin)
                         .value("Editor", Role::Editor)
                         .value("Viewer", Role::Viewer));
      },
      [&] { return add_account<Account>(e, "Account"); },
      [&] {
        return e.add(Struct<Attachment>("Attachment")
                         .field("name", &Attachment::name)
                         .field("data", &Attachment::data));
      },
      [&] { return add_graph<Graph>(e, "Graph"); },
      [&] { return e.add(Struct<StringList>("StringList").field("items", &StringList::items)); },
      [&] { return e.add(Struct<StringMap>("StringMap").field("items", &StringMap::items)); },
      [&] {
        return e.add(Struct<StringMapPmr>("StringMapPmr").field("items", &StringMapPmr::items));
      },
      [&] { return add_account<AccountPmr>(e, "AccountPmr"); },
      [&] { return add_graph<GraphPmr>(e, "GraphPmr"); },
  });
}

MediaContent make_media_content() {
  MediaContent c;
  c.media = Media{"http://javaone.com/keynote.mpg",
                  "Javaone Keynote",
                  640,
                  480,
                  "video/mpg4",
                  18000000,
                  58982400,
                  262144,
                  true,
                  {"Bill Gates", "Steve Jobs"},
                  Player::JAVA,
                  std::nullopt};
  c.images = {
      Image{"http://javaone.com/keynote_large.jpg", "Javaone Keynote", 1024, 768, Size::LARGE},
      Image{"http://javaone.com/keynote_small.jpg", "Javaone Keynote", 320, 240, Size::SMALL},
  };
  return c;
}

Sample make_sample() {
  Sample s;
  s.intValue = 123;
  s.longValue = 1230000;
  s.floatValue = 12.345f;
  s.doubleValue = 1.234567;
  s.shortValue = 12345;
  s.charValue = u'!';
  s.booleanValue = true;
  s.IntValue = 321;
  s.LongValue = 3210000;
  s.FloatValue = 54.321f;
  s.DoubleValue = 7.654321;
  s.ShortValue = 32100;
  s.CharValue = u'$';
  s.BooleanValue = false;
  s.intArray = {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
  s.longArray = {-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400};
  s.floatArray = {-12.34f, -12.3f, -12, -1, 0, 1, 12, 12.3f, 12.34f};
  s.doubleArray = {-1.234, -1.23, -12, -1, 0, 1, 12, 1.23, 1.234};
  s.shortArray = {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
  s.charArray = {u'a', u's', u'd', u'f', u'A', u'S', u'D', u'F'};
  s.booleanArray = {true, false, false, true};
  s.string = "Hello World";
  return s;
}

A1 make_a1() { return A1{7, "json4s", 3.25, true, {"fast", "typed", "scala"}, 1700000000123}; }

Moshi make_moshi() { return Moshi{1, 2, 3}; }
Foo make_foo() { return Foo{"bar value", 4}; }
FooImmutable make_foo_immutable() { return FooImmutable{"bar value", 4}; }
FooWithDefault make_foo_with_default() { return FooWithDefault{"bar value", 4}; }
FooWithValueClass make_foo_with_value_class() { return FooWithValueClass{"bar value", Bizz{5}}; }

Graph make_graph() {
  Graph g;
  fill_graph(g, [] { return std::make_shared<Account>(); });
  return g;
}

Graph copy_graph(const Graph& g) {
  Graph r;
  copy_graph_into(g, r, [] { return std::make_shared<Account>(); });
  return r;
}

GraphPmr copy_graph(const GraphPmr& g, std::pmr::memory_resource* resource) {
  GraphPmr r(resource);
  copy_graph_into(g, r, [&r] { return std::allocate_shared<AccountPmr>(r.get_allocator()); });
  return r;
}

GraphPmr make_graph_pmr() {
  GraphPmr g;
  fill_graph(g, [&g] { return std::allocate_shared<AccountPmr>(g.get_allocator()); });
  return g;
}

StringList make_string_list() {
  StringList l;
  l.items.reserve(50000);
  for (std::size_t i = 0; i < 50000; ++i) l.items.push_back(text100(i));
  return l;
}

StringMap make_string_map() {
  StringMap m;
  for (std::size_t i = 0; i < 30000; ++i) m.items.emplace("key-" + std::to_string(i), text100(i));
  return m;
}

StringMapPmr make_string_map_pmr() {
  StringMapPmr m;
  for (auto& [key, value] : make_string_map().items) m.items.emplace(key, value);
  return m;
}

}  // namespace jitser::payloads
