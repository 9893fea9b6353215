package membound.benchmarks.stream;

import membound.vocabulary.BadInputException;

/** Which twin of a kernel runs: the Vector API one, or the plain loop the JIT compiles on its own. */
public enum Implementation {
    VECTOR,
    SCALAR;

    public static Implementation of(String name) {
        for (Implementation implementation : values()) {
            if (implementation.name().equalsIgnoreCase(name.trim())) {
                return implementation;
            }
        }
        throw new BadInputException("implementation must be one of vector, scalar: implementation=" + name);
    }
}
