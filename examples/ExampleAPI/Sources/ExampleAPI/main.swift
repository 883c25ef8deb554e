import Hummingbird
import ArgumentParser
print("stub")
