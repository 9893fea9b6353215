package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemIdentityReaderTest {

    @Test
    void shouldNameTheKernelReleaseAndTheJvmsHostnameWhereTheOtherSourceIsSilent(@TempDir Path root) {
        // The JVM names no OS, the kernel no hostname; DMI is absent, as in most containers.
        write(root, SystemFiles.JAVA_FILE, "hostname=box\njava.version=17.0.15\njava.vendor=Debian\n");
        write(root, "proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
        SystemIdentityReader reader = new SystemIdentityReader(SystemFiles.fixture(root));

        assertEquals("Linux 6.8.0-45-generic", reader.os());
        assertEquals("box", reader.hostname());
        assertEquals("17.0.15 (Debian)", reader.jdk());
        assertEquals(Dmi.NONE, reader.dmi());
    }
}
