--- a/f.py
+++ b/f.py
@@ -1 +1 @@
\ No newline at end of file
diff --git a/x b/x
- x
+ y
 
