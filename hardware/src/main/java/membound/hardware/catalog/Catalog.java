package membound.hardware.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import membound.hardware.host.Host;
import membound.hardware.host.PlatformMatch;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.EditDistance;

/**
 * The datasheet catalog: known platforms, looked up by id or alias, and matched to a detected host.
 * {@link #builtIn()} holds the entries of {@link Datasheets}; every figure there carries its source.
 */
public final class Catalog {

    private static final Catalog BUILT_IN = new Catalog(Datasheets.all());

    private final List<PlatformSpec> platforms;
    private final Map<String, PlatformSpec> byName = new HashMap<>();

    /** A catalog of the given entries; ids and aliases must not collide once normalised. */
    public Catalog(List<PlatformSpec> platforms) {
        this.platforms = List.copyOf(platforms);
        Set<String> ids = new java.util.HashSet<>();
        for (PlatformSpec p : this.platforms) {
            if (!ids.add(p.id())) {
                throw new BadInputException("catalog ids must be unique: id=" + p.id());
            }
            for (String name : names(p)) {
                PlatformSpec previous = byName.putIfAbsent(normalize(name), p);
                if (previous != null && previous != p) {
                    throw new BadInputException("catalog names must be unique: name=" + name + " is used by "
                            + previous.id() + " and " + p.id());
                }
            }
        }
    }

    /** The entries built into membound. */
    public static Catalog builtIn() {
        return BUILT_IN;
    }

    public List<PlatformSpec> all() {
        return platforms;
    }

    public List<String> ids() {
        return platforms.stream().map(PlatformSpec::id).toList();
    }

    /** The entry with this id or alias, ignoring case, spaces and underscores ({@code "DGX Spark"} works). */
    public Optional<PlatformSpec> find(String idOrAlias) {
        if (idOrAlias == null) {
            return Optional.empty();
        }
        String key = normalize(idOrAlias);
        PlatformSpec found = byName.get(key);
        if (found == null && key.startsWith("nvidia-")) {
            found = byName.get(key.substring("nvidia-".length()));
        }
        return Optional.ofNullable(found);
    }

    /**
     * The entry with this id or alias, for {@code --platform NAME}.
     *
     * @throws BadInputException naming the close matches and the known ids when there is none
     */
    public PlatformSpec require(String idOrAlias) {
        return find(idOrAlias).orElseThrow(() -> {
            List<String> close = closeMatches(idOrAlias == null ? "" : idOrAlias);
            return new BadInputException("platform must be a catalog id or alias: platform=" + idOrAlias
                    + (close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?")
                    + " Known ids: " + String.join(", ", ids()));
        });
    }

    /** The entry for the platform detection recognised on this host, if any. */
    public Optional<PlatformSpec> match(Host host) {
        return host.platform().flatMap(m -> find(m.catalogId()));
    }

    /**
     * The host taken as the named platform, whatever detection recognised: {@code --platform NAME}.
     *
     * @throws BadInputException as {@link #require(String)} does
     */
    public Host withPlatform(Host host, String idOrAlias) {
        PlatformSpec spec = require(idOrAlias);
        return host.withPlatform(new PlatformMatch(spec.id(), spec.name(), "--platform " + idOrAlias));
    }

    /** Ids whose id or an alias is within a small edit distance of the query, or contains it. */
    public List<String> closeMatches(String query) {
        String q = normalize(query);
        if (q.isEmpty()) {
            return List.of();
        }
        int limit = Math.max(2, q.length() / 3);
        Map<String, Integer> best = new HashMap<>();
        for (PlatformSpec p : platforms) {
            for (String name : names(p)) {
                String n = normalize(name);
                int distance = n.contains(q) || q.contains(n) ? 1 : EditDistance.between(q, n);
                if (distance <= limit) {
                    best.merge(p.id(), distance, Math::min);
                }
            }
        }
        List<String> ids = new ArrayList<>(best.keySet());
        ids.sort(Comparator.comparing((String id) -> best.get(id)).thenComparing(id -> id));
        return ids;
    }

    private static Set<String> names(PlatformSpec p) {
        Set<String> names = new LinkedHashSet<>();
        names.add(p.id());
        names.addAll(p.aliases());
        return names;
    }

    static String normalize(String name) {
        return name.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9+]+", "-").replaceAll("^-|-$", "");
    }
}
